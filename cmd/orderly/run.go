package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// engine returns a function that makes the game procedures of a rule set
// over the built-in tables and the house rules.
// maker is the procedures of each rule set over the built-in tables, the
// house rules and, when given, a game's own tables file.
func (a *app) maker() (rules.Maker, error) {
	house, err := rules.Sources(a.rules...)
	if err != nil {
		return nil, bad(err)
	}
	m, err := rules.Make(house...)
	return m, bad(err)
}

func (a *app) engine() (script.Engine, error) {
	set, err := a.load()
	if err != nil {
		return nil, err
	}
	if err := rules.Playable(set); err != nil {
		return nil, bad(err)
	}
	return func(id string) (game.Rules, error) { return rules.Engine(id, set) }, nil
}

func (a *app) runCmd() *cobra.Command {
	var (
		asJSON bool
		seat   string
	)
	c := &cobra.Command{
		Use:   "run SCRIPT.yaml",
		Short: "Play a scripted game and print its timeline",
		Long: `Play a script: a scenario, the commands of each turn and phase, and
optionally the natural rolls to use (physical dice, or a test's). Prints
every event of the game in order, as text or, with --json, as one JSON
array. A rejected command appears as a command-rejected entry and changes
nothing. If the script states expectations (expect:), any that fail are
reported and the exit status is 1. With --as SIDE the timeline is what that
side may see: without the other side's orders, the contents of its
messengers and its secret rolls.`,
		Example: `  orderly run examples/nb/seed-example.yaml
  orderly run examples/nb/seed-example.yaml --json
  orderly run examples/nb/nb-10-off-board-reserve.yaml --as british`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runScript(args[0], seat, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the timeline as a JSON array")
	c.Flags().StringVar(&seat, "as", "", "show the timeline as `SIDE` sees it (or umpire: everything)")
	return c
}

// runScript plays the script in file and prints its timeline, all of it
// or what seat may see, as text or JSON; then it reports the script's
// failed expectations, which it checks against the whole timeline.
func (a *app) runScript(file, seat string, asJSON bool) error {
	engine, err := a.engine()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return bad(err)
	}
	s, err := script.Load(file, data, engine, script.Disk)
	if err != nil {
		return bad(err)
	}
	if s.Refusal != nil {
		writeRefusal(a.out, s, asJSON)
		return nil
	}
	rs, err := engine(s.Scenario.Rules)
	if err != nil {
		return bad(err)
	}
	if err := checkSeat(s, seat); err != nil {
		return err
	}
	g, timeline, err := s.Run(rs)
	if err != nil {
		return bad(err)
	}
	if err := a.printTimeline(s, g, seenBy(timeline, seat), asJSON); err != nil {
		return err
	}
	if errs := s.Check(timeline); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(a.err, "orderly: %v\n", e)
		}
		return fmt.Errorf("%d of the script's %d expectations failed", len(errs), len(s.Expect))
	}
	return nil
}

// checkSeat refuses an --as that is neither a side of the script's
// scenario nor the umpire; "" (everything) passes.
func checkSeat(s *script.Script, seat string) error {
	if seat != "" && seat != game.Umpire && s.Scenario.Side(seat) == nil {
		var sides []string
		for _, sd := range s.Scenario.Sides {
			sides = append(sides, sd.ID)
		}
		return badf("--as %s: not a side of this scenario; allowed: %s, umpire", seat, strings.Join(sides, ", "))
	}
	return nil
}

// seenBy is the events of timeline that seat may see; with no seat, all.
func seenBy(timeline []game.Event, seat string) []game.Event {
	if seat == "" {
		return timeline
	}
	var seen []game.Event
	for _, e := range timeline {
		if e.Visible(seat) {
			seen = append(seen, e)
		}
	}
	return seen
}

// printTimeline prints the events of g in timeline as text, or as one
// JSON array (empty, not null, with none).
func (a *app) printTimeline(s *script.Script, g *game.Game, timeline []game.Event, asJSON bool) error {
	if !asJSON {
		writeTimeline(a.out, s, timeline, g)
		return nil
	}
	if timeline == nil {
		timeline = []game.Event{}
	}
	enc := json.NewEncoder(a.out)
	enc.SetIndent("", "  ")
	return enc.Encode(timeline)
}

// writeRefusal prints what a script that expects its scenario refused
// (refused:) got: the refusal, which held the text it expects.
func writeRefusal(w io.Writer, s *script.Script, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]string{"script": s.Name, "refused": s.Refusal.Error()})
		return
	}
	title := s.Title
	if title == "" {
		title = s.Name
	}
	fmt.Fprintf(w, "%s\nThe scenario is refused, as the script expects:\n  %s\n", title, s.Refusal)
}

// writeTimeline prints the timeline for people: a heading per turn and
// phase, then one line per event with its type and side.
func writeTimeline(w io.Writer, s *script.Script, timeline []game.Event, g *game.Game) {
	title := s.Title
	if title == "" {
		title = s.Name
	}
	if title != "" {
		fmt.Fprintf(w, "%s\n", title)
	}
	fmt.Fprintf(w, "scenario %s (%s rules), seed %d\n", s.Scenario.Name, s.Scenario.Rules, s.Seed)
	turn, phase := -1, ""
	for i := range timeline {
		e := &timeline[i]
		if e.Type == game.StepBegun {
			continue
		}
		if e.Turn != turn || e.Phase != phase {
			turn, phase = e.Turn, e.Phase
			if turn == 0 {
				fmt.Fprintf(w, "\nbefore the game\n")
			} else {
				fmt.Fprintf(w, "\nturn %d, %s phase\n", turn, phase)
			}
		}
		side := e.Side
		if side == "" {
			side = "-"
		}
		fmt.Fprintf(w, "  %-24s %-8s %s\n", e.Type, side, g.Describe(e, nil))
	}
	fmt.Fprintf(w, "\nstate %s\n", g.Hash()[:16])
}
