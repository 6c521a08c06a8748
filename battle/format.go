package battle

import (
	"go.yaml.in/yaml/v3"

	"orderly/geom"
)

// The scenario file format, defined once: the types below are what a
// scenario file holds, field for field. The strict decoder (decode.go)
// reads a file into them and the schema generator (schema.go) describes
// them, both from the same struct tags, so the loader and the JSON Schema
// cannot drift apart. A builder (load.go) then turns them into a Scenario,
// checking what needs more than one field (an entry square in the grid);
// Finish checks what needs the whole scenario (ids used once, pieces on
// the table).
//
// The tags:
//
//	yaml:"key"     the field's key; yaml:"-" for a field that is not one
//	doc:"..."      what the field means, for the schema (every key has one);
//	               the schema adds the allowed range and the default
//	is:"..."       comma-separated rules:
//	               required          the field must be given
//	               word, id, square  a text that is a key word, an id, an
//	                                 entry square such as B9
//	               enum=LIST         one of a word list: qualities, nations,
//	                                 orders (the rule set's vocabulary), rules
//	                                 (its id), unit-types, shapes, statuses,
//	                                 edges, layouts (of a hex map)
//	               not=WORD          ... except this one, for the reason in why
//	               min=, max=        inclusive bounds of a number
//	               gt=, lt=          exclusive bounds of a number
//	               default=VALUE     the value when the field is left out
//	               items=LO..HI      how many items a list has (HI may be left out)
//	               keys=LIST         a mapping whose keys are from a word list,
//	                                 each value read by the field's other rules
//	unit:"inches"  the unit of a number, in messages; {unit} for the unit
//	               of the scenario's space (see below)
//	part:"NAME"    the field belongs to an optional part of the format
//	               (Parts): a rule set that does not use the part
//	               (Spec.Parts) does not know the field
//	space:"KIND"   the field gives the space the scenario is played on, of
//	               that kind (geom.KindTable, geom.KindHex): a scenario
//	               gives exactly one such field, of a kind its rule set
//	               plays on (Spec.Spaces), and the schema lists only those
//	note:"..."     said after the allowed range of a number, in brackets
//	why:"..."      why the word in not= is refused
//	missing:"..."  the message for a required field left out (default:
//	               "KEY is missing", with the unit in brackets)
//	count:"..."    the message for a list of the wrong length (", got N" follows)
//	each:"..."     the description of each key of a keys= mapping (%s: the key)
//
// In doc, unit and each, {unit} stands for what distances are counted in
// (inches on a table, hexes on a hex map) and {surface} for what the game
// is played on (table, hex map): the decoder's messages say the
// scenario's own, and the schema says those of the rule set's spaces.
//
// Every struct has a blank field _ struct{} whose tag names its schema
// definition (def:"side"), describes it (doc:"...") and, with short:"kind",
// lets a bare scalar stand for the whole mapping with only that field. A
// field of type *yaml.Node receives the node the struct was read from, for
// lines in messages; a field map[string]any tagged attrs:"unit" receives
// the rule set's own attributes of that piece (Spec.Attrs).

// scenarioFile is a whole scenario file.
type scenarioFile struct {
	_       struct{}           `def:"scenario" doc:"A scenario for orderly: the {surface}, the two sides with their chain of command from army commander down to combat units, where each piece starts and, where the rule set gives them, the orders at the start. Checks that span several fields (ids used once, pieces on the {surface}, an entry square inside the grid, a speed for every unit where the rule set reads speeds) and the rule set's own checks are left to the loader."`
	Name    string             `yaml:"name" is:"required,word" doc:"Short name of the scenario, used as its key: lower-case letters, digits and - . / + _."`
	Title   string             `yaml:"title" doc:"Title of the scenario in free text, for people."`
	Rules   string             `yaml:"rules" is:"required,enum=rules" doc:"Id of the rule set that plays the scenario, e.g. nb."`
	Turns   int                `yaml:"turns" is:"min=1,max=1000,default=20" doc:"Number of the last turn of the battle."`
	Field   *fieldFile         `yaml:"field" space:"table" doc:"The table: its size in inches and, optionally, the grid of squares that off-board reserves enter by."`
	Map     *mapFile           `yaml:"map" space:"hex" doc:"The hex map: its columns and rows of hexes and how they are numbered."`
	Speeds  map[string]float64 `yaml:"speeds" part:"speeds" is:"keys=unit-types,gt=0,max=1000" unit:"{unit}" each:"Move of %s in {unit} per turn." doc:"Move in {unit} per turn for each type of unit. A unit without its own speed takes the one for its type; every unit must end up with a speed one way or the other."`
	Evening []int              `yaml:"evening" part:"evening" is:"min=1,max=1000" doc:"The turns that are evening turns, when command is harder to keep (SPEC NES-3)."`
	Sides   []sideFile         `yaml:"sides" is:"required,items=2..2" count:"a battle has two sides" doc:"The two armies of the battle; a scenario has exactly two sides."`
	Result  *resultFile        `yaml:"result" doc:"How the battle is won: the objectives each worth points to the side that holds it at the end, and the margin a win needs. Without it the scenario defines no result, and the end of a game shows the after-action report's summary."`
	Node    *yaml.Node         `yaml:"-"`
}

// resultFile is how a scenario's battle is won (its result: section);
// load.go checks the objectives' places and names, and game.Result works
// the result out at the end.
type resultFile struct {
	_          struct{}        `def:"result" doc:"How the battle is won. At the end each objective is held by the side with a combat unit within its radius and no enemy combat unit within it, and scores its points for that side; a side wins with more points than the other by more than margin, and otherwise the battle is a draw."`
	Objectives []objectiveFile `yaml:"objectives" is:"required,items=1..100" count:"a result has 1..100 objectives" doc:"The places that score, each with a name, where it is, its points and its radius."`
	Margin     int             `yaml:"margin" is:"min=0,max=100000,default=0" doc:"How many points more than the other a side needs to win: with 0, any lead wins and equal points are a draw."`
	Node       *yaml.Node      `yaml:"-"`
}

type objectiveFile struct {
	_      struct{}    `def:"objective" doc:"A place that scores for the side that holds it at the end of the battle."`
	Name   string      `yaml:"name" is:"required" doc:"Name of the objective in free text, e.g. Hougoumont; each objective's name is its own."`
	At     *geom.Point `yaml:"at" is:"required" doc:"Where the objective is."`
	Points int         `yaml:"points" is:"required,min=1,max=10000" doc:"Points the objective is worth to the side that holds it at the end."`
	Radius float64     `yaml:"radius" is:"min=0,max=1000,default=0" unit:"{unit}" doc:"How near in {unit} a combat unit must stand to hold the objective (or to deny it to the other side); 0 on a hex map is the objective's own hex."`
	Node   *yaml.Node  `yaml:"-"`
}

type fieldFile struct {
	_        struct{}      `def:"field" doc:"The playing surface. Its origin is the north-west corner."`
	Width    float64       `yaml:"width" is:"required,gt=0,max=100000" unit:"inches" doc:"Size of the table from west to east in inches."`
	Depth    float64       `yaml:"depth" is:"required,gt=0,max=100000" unit:"inches" doc:"Size of the table from north to south in inches."`
	Grid     *gridFile     `yaml:"grid" doc:"The entry grid that divides the table into equal squares named like B9. Needed only when an off-board reserve names an entry square."`
	Features []featureFile `yaml:"features" is:"items=0..500" count:"a table has at most 500 features" doc:"The terrain on the table: areas (woods, fords, hillsides, towns) and lines (walls and hedges, rivers, roads)."`
	Image    *imageFile    `yaml:"image" doc:"A picture drawn under the table, such as a scanned map: its data, its pixels per inch (scale) and where its top-left corner lies (at)."`
	Node     *yaml.Node    `yaml:"-"`
}

// featureFile is a piece of terrain on a table (SPEC CD-3, CD-6, CD-9
// read it; any tabletop rule set may).
type featureFile struct {
	_          struct{}       `def:"feature" doc:"A piece of terrain on the table: an area (woods, a ford, a hillside, a town) given by its corners, or a line (a wall or hedge, a river, a road) given by its points, [x, y] in inches each."`
	ID         string         `yaml:"id" is:"id" doc:"Id of the feature, for messages and the page."`
	Name       string         `yaml:"name" doc:"Name of the feature in free text, e.g. Hougoumont wood."`
	Type       string         `yaml:"type" is:"required,enum=features" doc:"What the feature is. light-woods, heavy-woods, ford, gradual-slope, slope, steep-slope and town are areas; linear-obstacle (a wall, a hedge), river and road are lines."`
	Area       []geom.Point   `yaml:"area" is:"items=3..1000" count:"an area has 3..1000 corners" doc:"The corners of an area, in order round it; the last joins the first. The edges may not cross."`
	Line       []geom.Point   `yaml:"line" is:"items=2..1000" count:"a line has 2..1000 points" doc:"The points of a line, in order."`
	Width      float64        `yaml:"width" is:"min=0,max=100,default=0" unit:"inches" doc:"Width of a river or road as drawn on the table."`
	Disruptive string         `yaml:"disruptive" is:"enum=disruptive" doc:"The disruptive terrain rating the scenario gives it, d1..d3 (SPEC CD-6); none when left out."`
	Cover      *bool          `yaml:"cover" doc:"Whether it gives cover; when left out, woods and towns do and the rest do not."`
	Sight      *bool          `yaml:"blocks-sight" doc:"Whether it blocks sight; when left out, woods and towns do and the rest do not."`
	Blocks     [][]geom.Point `yaml:"blocks" is:"items=0..100" count:"a town has at most 100 blocks" doc:"A town's blocks, each an area inside the town given by its corners; units move block to block and a block holds at most four friendly stands (SPEC CD-9)."`
	Node       *yaml.Node     `yaml:"-"`
}

// mapFile is a hex map (geom/hex): its size and how its hexes are
// numbered. Positions on it are written as a hex's printed label.
type mapFile struct {
	_         struct{}            `def:"map" doc:"A hex map: columns of hexes numbered from the west edge and rows numbered from the north edge, each hex labelled with its column number then its row number (0412: column 4, row 12). Every position on it is written as such a label, in quotes, and distances (speeds, command ranges) are counted in hexes."`
	Columns   int                 `yaml:"columns" is:"required,min=1,max=999" doc:"Number of columns of hexes, numbered from first at the west edge."`
	Rows      int                 `yaml:"rows" is:"required,min=1,max=999" doc:"Number of rows of hexes, numbered from first at the north edge."`
	Layout    string              `yaml:"layout" is:"enum=layouts,default=odd-q" doc:"How the hexes lie, as on the printed map. odd-q: flat-topped hexes in columns, the second, fourth, ... columns (counting the first as first) half a hex lower than the first, third, ...; even-q: the same with the first, third, ... columns lower; odd-r: pointy-topped hexes in rows, the second, fourth, ... rows half a hex to the east; even-r: the first, third, ... rows to the east."`
	First     int                 `yaml:"first" is:"min=0,max=99,default=1" doc:"The number of the first column and of the first row, as printed."`
	Digits    int                 `yaml:"digits" is:"min=1,max=3,default=2" doc:"Digits of each number in a label, with leading zeros: 2 for 0412, 3 for 004012. The last column and row must fit them."`
	Terrain   string              `yaml:"terrain" part:"terrain" doc:"The terrain of every hex as a grid of letters: a line for each row, the first row first, a letter for each column, the first column first (spaces between letters are ignored). The rule set's letters are allowed; its first terrain (clear) is every hex's when the grid is left out. Write it as a YAML block (terrain: |)."`
	Elevation string              `yaml:"elevation" part:"terrain" doc:"The elevation level of every hex as a grid of digits 0..9 laid out like terrain; every hex is at level 0 when it is left out. A hexside between two levels is a slope, from the lower hex up."`
	Hexsides  map[string]string   `yaml:"hexsides" part:"terrain" is:"keys=hexsides" each:"The hexsides with a %s: pairs of neighbouring hexes' labels with a / between (0412/0413), separated by spaces." doc:"Features along hexsides, by kind: for each, the hexsides that carry it."`
	Roads     map[string][]string `yaml:"roads" part:"terrain" is:"keys=roads" each:"The chains of %s: each the labels of the hexes along the road in order, separated by spaces (\"0101 0102 0203\"), each a neighbour of the one before." doc:"Roads by kind, each a list of chains of hexes."`
	Image     *imageFile          `yaml:"image" doc:"A picture drawn under the hex map, such as a scanned game board: its data and where its hex grid lies in its pixels (x0, y0, dx, dy)."`
	Node      *yaml.Node          `yaml:"-"`
}

// imageFile is a backdrop image under a table (field.image) or a hex map
// (map.image); image.go checks it and the keys of each space.
type imageFile struct {
	_     struct{}   `def:"image" doc:"A backdrop image drawn under the {surface}: a PNG, JPEG or GIF of at most 4 MiB and 8192 pixels a side, as a data URL. Under a table (field.image) it is placed by scale and at; under a hex map (map.image) by x0, y0, dx and dy, in the image's pixels."`
	Data  string     `yaml:"data" is:"required" doc:"The image as a data URL: data:image/png;base64, then the image's bytes in base64 (image/jpeg and image/gif are allowed too)."`
	Scale float64    `yaml:"scale" is:"gt=0,max=100000" unit:"pixels per inch" doc:"On a table (required there): the image's pixels per inch."`
	At    []float64  `yaml:"at" is:"items=2..2,min=-100000,max=100000" count:"at is [x, y] in inches" unit:"inches" doc:"On a table: where the image's top-left corner lies, [x, y] in inches; [0, 0] when left out."`
	X0    float64    `yaml:"x0" is:"min=-100000,max=100000" unit:"pixels" doc:"On a hex map (required there): the x of the centre of the first hex (first column, first row) in the image's pixels."`
	Y0    float64    `yaml:"y0" is:"min=-100000,max=100000" unit:"pixels" doc:"On a hex map (required there): the y of the centre of the first hex in the image's pixels."`
	DX    float64    `yaml:"dx" is:"gt=0,max=100000" unit:"pixels" doc:"On a hex map (required there): the distance in pixels between the centres of hexes in neighbouring columns (odd-q, even-q) or of neighbouring hexes in a row (odd-r, even-r)."`
	DY    float64    `yaml:"dy" is:"gt=0,max=100000" unit:"pixels" doc:"On a hex map (required there): the distance in pixels between the centres of neighbouring hexes in a column (odd-q, even-q) or of hexes in neighbouring rows (odd-r, even-r)."`
	Node  *yaml.Node `yaml:"-"`
}

type gridFile struct {
	_       struct{} `def:"grid" doc:"The entry grid: columns lettered from A at the west edge, rows numbered from 1 at the north edge (SPEC NB-10)."`
	Columns int      `yaml:"columns" is:"required,min=1,max=26" note:"lettered A..Z" doc:"Number of columns, lettered A, B, ... from the west edge."`
	Rows    int      `yaml:"rows" is:"required,min=1,max=99" doc:"Number of rows, numbered 1, 2, ... from the north edge."`
}

type sideFile struct {
	_         struct{}       `def:"side" doc:"One army: who it is, the {surface} edge it is based on, its commander and the formations under him."`
	ID        string         `yaml:"id" is:"required,id" doc:"Id of the side; it is also the id of its army formation."`
	Name      string         `yaml:"name" doc:"Name of the army in free text."`
	Nation    string         `yaml:"nation" is:"required,enum=nations" doc:"Nation of the army; the rule set's nations are allowed."`
	Edge      string         `yaml:"edge" is:"required,enum=edges" doc:"The side's base edge of the {surface}."`
	Army      generalFile    `yaml:"army" is:"required" doc:"The army commander, the general at the top of the side's chain of command."`
	HQ        *geom.Point    `yaml:"hq" part:"hq" doc:"Where the army's headquarters stands, apart from the army commander; it stands with him when left out."`
	Points    *int           `yaml:"command-points" part:"command-points" is:"min=0,max=99" doc:"The command points the side has each turn, to send orders (an urgent one costs one more)."`
	Wings     []wingFile     `yaml:"wings" part:"corps" doc:"Wings directly under the army commander, in order."`
	Corps     []corpsFile    `yaml:"corps" part:"corps" doc:"Corps directly under the army commander, in order."`
	Divisions []divisionFile `yaml:"divisions" part:"corps" doc:"Independent divisions directly under the army commander, in order."`
	Brigades  []brigadeFile  `yaml:"brigades" part:"brigades" is:"items=1.." count:"a side needs at least one brigade" doc:"The brigades under the army commander, in order."`
	Node      *yaml.Node     `yaml:"-"`
}

type generalFile struct {
	_       struct{}       `def:"general" doc:"A commander model."`
	ID      string         `yaml:"id" is:"required,id" doc:"Id of the general."`
	Name    string         `yaml:"name" doc:"Name of the general in free text."`
	Quality string         `yaml:"quality" part:"quality" is:"required,enum=qualities" doc:"Quality of the general; the rule set's qualities are allowed."`
	Range   float64        `yaml:"range" part:"range" is:"required,gt=0,max=1000" unit:"{unit}" doc:"Command range in {unit}."`
	At      *geom.Point    `yaml:"at" doc:"Where the general starts. Leave it out only for a general of an off-board reserve, who comes on with his troops."`
	Attrs   map[string]any `yaml:"-" attrs:"general"`
	Node    *yaml.Node     `yaml:"-"`
}

type wingFile struct {
	_         struct{}       `def:"wing" doc:"A wing: a command between the army and its corps and divisions."`
	ID        string         `yaml:"id" is:"required,id" doc:"Id of the wing."`
	Name      string         `yaml:"name" doc:"Name of the wing in free text."`
	General   generalFile    `yaml:"general" is:"required" doc:"The general who commands the wing."`
	Order     *orderFile     `yaml:"order" doc:"The wing's order at the start, if the rule set gives wings orders (NB does not)."`
	Corps     []corpsFile    `yaml:"corps" doc:"Corps under the wing, in order."`
	Divisions []divisionFile `yaml:"divisions" doc:"Divisions under the wing that belong to no corps, in order."`
	Attrs     map[string]any `yaml:"-" attrs:"formation"`
	Node      *yaml.Node     `yaml:"-"`
}

type corpsFile struct {
	_         struct{}       `def:"corps" doc:"A corps: a command of divisions."`
	ID        string         `yaml:"id" is:"required,id" doc:"Id of the corps."`
	Name      string         `yaml:"name" doc:"Name of the corps in free text."`
	General   generalFile    `yaml:"general" is:"required" doc:"The general who commands the corps."`
	Order     *orderFile     `yaml:"order" doc:"The corps' order at the start. Without one it follows the order of the formation above it."`
	Divisions []divisionFile `yaml:"divisions" doc:"Divisions of the corps, in order."`
	Attrs     map[string]any `yaml:"-" attrs:"formation"`
	Node      *yaml.Node     `yaml:"-"`
}

type divisionFile struct {
	_        struct{}       `def:"division" doc:"A division: the lowest command, with its combat units."`
	ID       string         `yaml:"id" is:"required,id" doc:"Id of the division."`
	Name     string         `yaml:"name" doc:"Name of the division in free text."`
	General  generalFile    `yaml:"general" is:"required" doc:"The general who commands the division."`
	Order    *orderFile     `yaml:"order" doc:"The division's order at the start. Without one it follows the order of the formation above it."`
	Units    []unitFile     `yaml:"units" is:"required,or=brigades,items=1.." missing:"a division needs at least one combat unit under units" count:"a division needs at least one combat unit" doc:"The division's combat units; a division has at least one (where the rule set gives divisions brigades, its brigades may hold them all)."`
	Brigades []brigadeFile  `yaml:"brigades" part:"division-brigades" is:"items=1.." count:"a division's brigades, if given, are at least one" doc:"The division's brigades, in order, each with its commander and combat units."`
	Attrs    map[string]any `yaml:"-" attrs:"formation"`
	Node     *yaml.Node     `yaml:"-"`
}

type brigadeFile struct {
	_       struct{}       `def:"brigade" doc:"A brigade: a commander and the combat units he gives orders to."`
	ID      string         `yaml:"id" is:"required,id" doc:"Id of the brigade."`
	Name    string         `yaml:"name" doc:"Name of the brigade in free text."`
	General generalFile    `yaml:"general" is:"required" doc:"The brigade's commander."`
	Units   []unitFile     `yaml:"units" is:"required,items=1.." missing:"a brigade needs at least one combat unit under units" count:"a brigade needs at least one combat unit" doc:"The brigade's combat units; a brigade has at least one."`
	Attrs   map[string]any `yaml:"-" attrs:"formation"`
	Node    *yaml.Node     `yaml:"-"`
}

type unitFile struct {
	_          struct{}       `def:"unit" doc:"A combat unit."`
	ID         string         `yaml:"id" is:"required,id" doc:"Id of the unit."`
	Name       string         `yaml:"name" doc:"Name of the unit in free text."`
	Type       string         `yaml:"type" is:"required,enum=unit-types" doc:"Arm of the unit."`
	Formation  string         `yaml:"formation" is:"enum=shapes,default=column" doc:"How the unit stands at the start."`
	Status     string         `yaml:"status" is:"enum=statuses,default=formed" doc:"State of the unit at the start."`
	At         *geom.Point    `yaml:"at" doc:"Where the unit starts. Leave it out only for a unit of an off-board reserve, which enters later."`
	Facing     float64        `yaml:"facing" is:"min=0,lt=360,default=0" unit:"degrees clockwise from north" doc:"Direction the unit faces."`
	Speed      *float64       `yaml:"speed" part:"speeds" is:"gt=0,max=1000" unit:"{unit}" doc:"Move of this unit in {unit} per turn, in place of the scenario's speed for its type."`
	Detachment bool           `yaml:"detachment" part:"detachment" is:"default=false" doc:"Whether the unit is a detachment."`
	Attrs      map[string]any `yaml:"-" attrs:"unit"`
	Node       *yaml.Node     `yaml:"-"`
}

// orderAim is what every order may say besides its kind.
type orderAim struct {
	Objective *geom.Point `yaml:"objective" doc:"The point the order aims at."`
	Note      string      `yaml:"note" doc:"The order's wording in free text, for people."`
}

// orderFile is an order at the start (SPEC NB-1), and for an off-board
// reserve where and how it comes on (NB-10). Its rules across fields are
// in (*builder).order, and in its schema through schemaRules.
type orderFile struct {
	_    struct{} `def:"order" short:"kind" doc:"An order at the start: either the bare kind (e.g. attack) or a mapping with its kind, objective and note. A reserve that starts off the table also names its entry square, the edge it enters by and the order it follows once on the table."`
	Kind string   `yaml:"kind" is:"required,enum=orders" doc:"Kind of order; the rule set's kinds of order are allowed."`
	orderAim
	Entry *string         `yaml:"entry" is:"square" doc:"For a reserve that starts off the table: the grid square it enters by, a column letter and a row number such as B9. The square must lie in field.grid and touch a table edge."`
	Edge  *string         `yaml:"edge" is:"enum=edges" doc:"For a reserve that starts off the table: the edge it enters by. Needed only when the entry square is a corner; otherwise it must be the edge the square touches."`
	Then  *laterOrderFile `yaml:"then" doc:"For a reserve that starts off the table: the order it follows once it has entered."`
	Node  *yaml.Node      `yaml:"-"`
}

// schemaRules adds to the order's schema the rules across its fields that
// (*builder).order checks: entry and then go together, edge needs entry,
// and only a reserve has an entry.
func (orderFile) schemaRules(s *schema) {
	s.DependentRequired = map[string][]string{"entry": {"then"}, "edge": {"entry"}, "then": {"entry"}}
	s.If = &schema{Required: []string{"entry"}}
	s.Then = &schema{Properties: properties{{"kind", &schema{Description: "Only a reserve enters from off the table.", Const: "reserve"}}}}
}

// laterOrderFile is the order an off-board reserve follows once it has
// entered (SPEC NB-10).
type laterOrderFile struct {
	_    struct{} `def:"laterOrder" short:"kind" doc:"The order an off-board reserve follows once on the table: the bare kind or a mapping with kind, objective and note. It cannot be reserve again."`
	Kind string   `yaml:"kind" is:"required,enum=orders,not=reserve" why:"a reserve that enters acts on its order" doc:"Kind of order; the rule set's kinds of order, less reserve, are allowed."`
	orderAim
	Node *yaml.Node `yaml:"-"`
}
