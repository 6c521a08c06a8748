package roster

import (
	"encoding/json"
	"testing"
)

// TestKnownRosters: a roster of each rule set reads to the sides worked
// out by hand from the rules of the package's doc: side fields from any
// row, the first side's edge south and the second's north when not
// given, a general commanding the deepest formation of his row, units
// given ids from their formation's, words written as a spreadsheet might
// (Light Cavalry), yes and x for true, positions as x y on a table and
// labels on a hex map, an order with an objective as a mapping, and every
// mapping's keys in the format's order.
func TestKnownRosters(t *testing.T) {
	for _, c := range knownRosters {
		ro, err := Read("r.csv", []byte(c.csv), spec(t, c.rules))
		if err != nil {
			t.Fatal(err)
		}
		if err := ro.Err(); err != nil {
			t.Errorf("%s: %v", c.rules, err)
			continue
		}
		got, err := json.Marshal(ro.Sides)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.rules, got, c.want)
		}
	}
}

var knownRosters = []struct{ rules, csv, want string }{
	{"nb", `side,side-nation,wing,corps,division,role,id,name,quality,range,at,type,formation,facing,command-name,command-order
fr,french,,,,general,nap,Napoleon,excellent,14,36 46,,,,,
fr,french,,I,,general,derlon,d'Erlon,average,8,30 44,,,,I Corps,attack
fr,,,I,1,general,quiot,Quiot,average,4,28 42,,,,,
fr,,,I,1,unit,,,,,26 40,infantry,column,0,,
fr,,,I,1,unit,,,,,,Light Cavalry,line,,,
al,british,,,,general,well,Wellington,excellent,16,36 2,,,,,
al,,left,,,general,orange,,poor,12,30 4,,,,,
al,,left,,G,general,cooke,Cooke,good,4,28 6,,,,,defend
al,,left,,G,unit,g1,1st Guards,,,28 8,infantry,line,180,,
`,
		`[{"id":"fr","nation":"french","edge":"south","army":{"id":"nap","name":"Napoleon","quality":"excellent","range":14,"at":[36,46]},"corps":[{"id":"I","name":"I Corps","general":{"id":"derlon","name":"d'Erlon","quality":"average","range":8,"at":[30,44]},"order":"attack","divisions":[{"id":"1","general":{"id":"quiot","name":"Quiot","quality":"average","range":4,"at":[28,42]},"units":[{"id":"1-1","type":"infantry","formation":"column","at":[26,40],"facing":0},{"id":"1-2","type":"light-cavalry","formation":"line"}]}]}]},{"id":"al","nation":"british","edge":"north","army":{"id":"well","name":"Wellington","quality":"excellent","range":16,"at":[36,2]},"wings":[{"id":"left","general":{"id":"orange","quality":"poor","range":12,"at":[30,4]},"divisions":[{"id":"G","general":{"id":"cooke","name":"Cooke","quality":"good","range":4,"at":[28,6]},"order":"defend","units":[{"id":"g1","name":"1st Guards","type":"infantry","formation":"line","at":[28,8],"facing":180}]}]}]}]`},
	{"bp", "side\tside-nation\tside-edge\tbrigade\trole\tid\tstaff\ttrait\ttype\tcombat\tmorale\tstamina\tat\n" +
		"fr\tfrench\twest\t\tgeneral\treille\t9\t\t\t\t\t\t2 24\n" +
		"fr\t\t\tb1\tgeneral\tjamin\t8\tdecisive\t\t\t\t\t4 24\n" +
		"fr\t\t\tb1\tunit\tu1\t\t\tinfantry\t6\t4\t3\t6 20\n" +
		"br\tbritish\teast\t\tgeneral\twell\t9\t\t\t\t\t\t70 24\n" +
		"br\t\t\tb2\tgeneral\tmait\t8\t\t\t\t\t\t68 24\n" +
		"br\t\t\tb2\tunit\tg1\t\t\tinfantry\t7\t5\t3\t66 24\n",
		`[{"id":"fr","nation":"french","edge":"west","army":{"id":"reille","at":[2,24],"staff":9},"brigades":[{"id":"b1","general":{"id":"jamin","at":[4,24],"staff":8,"trait":"decisive"},"units":[{"id":"u1","type":"infantry","at":[6,20],"combat":6,"morale":4,"stamina":3}]}]},{"id":"br","nation":"british","edge":"east","army":{"id":"well","at":[70,24],"staff":9},"brigades":[{"id":"b2","general":{"id":"mait","at":[68,24],"staff":8},"units":[{"id":"g1","type":"infantry","at":[66,24],"combat":7,"morale":5,"stamina":3}]}]}]`},
	{"nes", `side,side-nation,side-hq,side-command-points,corps,division,brigade,role,id,range,rating,at,type,strength,class,command-order,command-objective,command-light-cavalry
fr,french,0211,4,,,,general,nap,6,,0210,,,,,,
fr,,,,I,,,general,dav,5,6,0410,,,,attack,1010,
fr,,,,I,D1,,general,mor,3,5,0411,,,,,,yes
fr,,,,I,D1,,unit,art,,,0511,artillery,4,1,,,
fr,,,,I,D1,B1,general,ger,2,4,0512,,,,,,
fr,,,,I,D1,B1,unit,l13,,,0612,infantry,6,,,,
ru,russian,,3,,,,general,kut,5,,3010,,,,,,
ru,,,,,D7,,general,pas,3,5,2910,,,,defend,,
ru,,,,,D7,,unit,orel,,,2810,infantry,5,,,,
`,
		`[{"id":"fr","nation":"french","edge":"south","army":{"id":"nap","range":6,"at":"0210"},"hq":"0211","command-points":4,"corps":[{"id":"I","general":{"id":"dav","range":5,"at":"0410","rating":6},"order":{"kind":"attack","objective":"1010"},"divisions":[{"id":"D1","general":{"id":"mor","range":3,"at":"0411","rating":5},"units":[{"id":"art","type":"artillery","at":"0511","strength":4,"class":1}],"brigades":[{"id":"B1","general":{"id":"ger","range":2,"at":"0512","rating":4},"units":[{"id":"l13","type":"infantry","at":"0612","strength":6}]}],"light-cavalry":true}]}]},{"id":"ru","nation":"russian","edge":"north","army":{"id":"kut","range":5,"at":"3010"},"command-points":3,"divisions":[{"id":"D7","general":{"id":"pas","range":3,"at":"2910","rating":5},"order":"defend","units":[{"id":"orel","type":"infantry","at":"2810","strength":5}]}]}]`},
	{"lob", `side,side-nation,corps,division,brigade,role,id,range,value,type,strength,at,command-order,command-objective,command-arrives
un,union,,,,general,pope,10,2,,,0105,,,
un,,II,,,general,banks,6,3,,,0205,move,0608,3
un,,II,D1,,general,will,3,3,,,0305,,,
un,,II,D1,cr,general,craw,2,2,,,0405,,,
un,,II,D1,cr,unit,28ny,,,infantry,4,0505,,,
co,confederate,,,,general,jack,12,4,,,2005,,,
co,,,W,,general,win,3,3,,,1905,attack,1605,
co,,,W,ga,general,gar,2,2,,,1805,,,
co,,,W,ga,unit,21va,,,infantry,3,1705,,,
`,
		`[{"id":"un","nation":"union","edge":"south","army":{"id":"pope","range":10,"at":"0105","value":2},"corps":[{"id":"II","general":{"id":"banks","range":6,"at":"0205","value":3},"order":{"kind":"move","objective":"0608"},"divisions":[{"id":"D1","general":{"id":"will","range":3,"at":"0305","value":3},"brigades":[{"id":"cr","general":{"id":"craw","range":2,"at":"0405","value":2},"units":[{"id":"28ny","type":"infantry","at":"0505","strength":4}]}]}],"arrives":3}]},{"id":"co","nation":"confederate","edge":"north","army":{"id":"jack","range":12,"at":"2005","value":4},"divisions":[{"id":"W","general":{"id":"win","range":3,"at":"1905","value":3},"order":{"kind":"attack","objective":"1605"},"brigades":[{"id":"ga","general":{"id":"gar","range":2,"at":"1805","value":2},"units":[{"id":"21va","type":"infantry","at":"1705","strength":3}]}]}]}]`},
	{"cd", `side,side-nation,division,brigade,role,id,rating,at,type,gun,stands,skirmish
fr,french,,,general,nap,excellent,36 46,,,,
fr,,D1,,general,ney,good,30 44,,,,
fr,,D1,,unit,a1,,30 40,artillery,12,2,
fr,,D1,B1,general,foy,average,28 44,,,,
fr,,D1,B1,unit,i1,,28 40,infantry,,4,x
al,british,,,general,well,superior,36 2,,,,
al,,D2,,general,pic,good,30 4,,,,
al,,D2,,unit,i2,,30 8,infantry,,,no
`,
		`[{"id":"fr","nation":"french","edge":"south","army":{"id":"nap","at":[36,46],"rating":"excellent"},"divisions":[{"id":"D1","general":{"id":"ney","at":[30,44],"rating":"good"},"units":[{"id":"a1","type":"artillery","at":[30,40],"gun":"12","stands":2}],"brigades":[{"id":"B1","general":{"id":"foy","at":[28,44],"rating":"average"},"units":[{"id":"i1","type":"infantry","at":[28,40],"stands":4,"skirmish":true}]}]}]},{"id":"al","nation":"british","edge":"north","army":{"id":"well","at":[36,2],"rating":"superior"},"divisions":[{"id":"D2","general":{"id":"pic","at":[30,4],"rating":"good"},"units":[{"id":"i2","type":"infantry","at":[30,8],"skirmish":false}]}]}]`},
}
