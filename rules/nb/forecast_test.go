package nb_test

import (
	"os"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
	"orderly/script"
)

// TestForecastDelivery checks the messenger a forecast announces against
// the game: for orders of the demo written on turn 1 (one corps; two
// corps of a wing, carried to the wing's commander, NB-11; a division
// through its corps commander; an on-board reserve, NB-9), the order is
// then written and the steps ended until it is acted on. The messenger
// leaves the army commander at his range a turn toward the recipient the
// forecast names (NB-3), delivers on the turn it says and every reader
// reads on the turn after (NB-4), or the reserve acts at delivery.
func TestForecastDelivery(t *testing.T) {
	r := engine(t)
	data, err := os.ReadFile("../../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, func(string) (game.Rules, error) { return r, nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		w    nb.Write
		to   string
	}{
		{"a corps", nb.Write{For: []string{"F-I"}, Kind: "attack"}, "derlon"},
		{"two corps of a wing", nb.Write{For: []string{"F-I", "F-II"}, Kind: "attack"}, "ney"},
		{"a division through its corps", nb.Write{For: []string{"F-I-1"}, Kind: "defend", To: "derlon"}, "derlon"},
		{"an on-board reserve", nb.Write{For: []string{"F-G"}, Kind: "attack"}, "drouot"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := game.New(sc, r, game.Seeded(7))
			if err != nil {
				t.Fatal(err)
			}
			s := nb.StateOf(g.State())
			fc, err := r.Forecast(sc, g.State(), "french", &nb.Args{Write: &c.w})
			if err != nil || len(fc) != len(c.w.For) {
				t.Fatalf("forecast: %+v, %v", fc, err)
			}
			army := s.General(s.Formation("french").General)
			to := s.General(c.to)
			for _, f := range fc {
				d := f.Messenger
				if d == nil {
					t.Fatalf("%s: no messenger in the forecast", f.Formation)
				}
				if d.From != army.ID || d.To != c.to || d.Speed != army.Range || d.Distance != army.At.Dist(to.At) {
					t.Errorf("%s: messenger %+v; want from %s to %s, %g away, at %g a turn", f.Formation, *d, army.ID, c.to, army.At.Dist(to.At), army.Range)
				}
				if reserve := f.Table == ""; reserve != (d.Read == 0) {
					t.Errorf("%s: read on turn %d with table %q: a reader rolls, a reserve reads nothing", f.Formation, d.Read, f.Table)
				}
			}
			evs, err := g.Do(game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &c.w}})
			if err != nil {
				t.Fatal(err)
			}
			var order string
			for _, e := range evs {
				if d := nb.DataOf(&e); e.Type == nb.OrderWritten {
					order = d.Order.ID
					if d.To != c.to {
						t.Errorf("the order went to %s, the forecast said %s", d.To, c.to)
					}
				}
			}
			delivered, read, acted := 0, map[string]int{}, map[string]int{}
			for i := 0; i < 40 && len(acted) < len(c.w.For) && !g.State().Over; i++ {
				n := g.Len()
				if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
					t.Fatal(err)
				}
				for _, e := range g.Since(n) {
					d := nb.DataOf(&e)
					switch {
					case d == nil:
					case e.Type == nb.OrderDelivered && d.OrderID == order:
						delivered = e.Turn
					case e.Type == nb.OrderRead && d.OrderID == order:
						read[d.Formation] = e.Turn
					case e.Type == nb.OrderActive && d.Order != nil && d.Order.ID == order:
						acted[d.Formation] = e.Turn
					}
				}
			}
			for _, f := range fc {
				if delivered != f.Messenger.Delivered {
					t.Errorf("%s: delivered on turn %d; the forecast said %d", f.Formation, delivered, f.Messenger.Delivered)
				}
				if f.Messenger.Read == 0 {
					if acted[f.Formation] != delivered || read[f.Formation] != 0 {
						t.Errorf("%s: read on turn %d, acted on turn %d; a reserve acts on delivery, turn %d", f.Formation, read[f.Formation], acted[f.Formation], delivered)
					}
				} else if read[f.Formation] != f.Messenger.Read {
					t.Errorf("%s: read on turn %d; the forecast said %d", f.Formation, read[f.Formation], f.Messenger.Read)
				}
			}
		})
	}
}

// TestForecastOneRideAway checks that the forecast counts a recipient
// within a hundredth of an inch of one ride as reached on that ride, as the
// messengers step does (NB-3): exactly 12" on a diagonal and 12.007" take
// one ride, 12.02" two (examples/nb/nb-03-one-ride-away.yaml).
func TestForecastOneRideAway(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/nb-03-one-ride-away.yaml")
	g, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	for corps, want := range map[string]int{"I": 1, "II": 1, "VI": 2} {
		fc, err := r.Forecast(sc, g.State(), "french", &nb.Args{Write: &nb.Write{For: []string{corps}, Kind: "defend"}})
		if err != nil || len(fc) != 1 || fc[0].Messenger == nil {
			t.Fatalf("%s: forecast %+v, %v", corps, fc, err)
		}
		if got := fc[0].Messenger.Delivered; got != want {
			t.Errorf("%s: forecast delivery on turn %d, want %d", corps, got, want)
		}
	}
}
