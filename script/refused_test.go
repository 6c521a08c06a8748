package script_test

import (
	"os"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// A script may expect its scenario refused (refused:): it holds when the
// scenario is refused with the text it gives, and is itself refused,
// naming the line, when the scenario loads, when it is refused for
// another reason, or when it also has turns to play; such a script has no
// game, so LoadAny and Run refuse it too.
func TestRefused(t *testing.T) {
	data, err := os.ReadFile("../examples/nes/nes-radii.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	// doc is a script around nes-radii with the unit u1 standing at hex.
	doc := func(hex, refused, extra string) []byte {
		sc := strings.Replace(string(data), `{id: u1, type: infantry, at: "0505"`, `{id: u1, type: infantry, at: "`+hex+`"`, 1)
		var b strings.Builder
		b.WriteString("script: off-map\ntitle: a unit off the map\n" + extra)
		if refused != "" {
			b.WriteString("refused: " + refused + "\n")
		}
		b.WriteString("scenario:\n")
		for _, line := range strings.Split(sc, "\n") {
			b.WriteString("  " + line + "\n")
		}
		return []byte(b.String())
	}
	// What the scenario is refused with, without the script expecting it.
	_, err = script.Load("off.yaml", doc("2505", "", ""), eng, script.NoFiles)
	if err == nil {
		t.Fatal("a unit at 2505 on a map of 20 columns loads")
	}
	_, why, _ := strings.Cut(err.Error(), ": ") // the line differs by the script's own
	s, err := script.Load("off.yaml", doc("2505", `"2505"`, ""), eng, script.NoFiles)
	if err != nil {
		t.Fatalf("the refusal the script expects: %v", err)
	}
	if s.Refusal == nil || !strings.HasSuffix(s.Refusal.Error(), ": "+why) || s.Scenario != nil {
		t.Errorf("the script holds %v with scenario %v; want the refusal %q and no scenario", s.Refusal, s.Scenario, why)
	}
	if _, _, err := s.Run(nil); err == nil || !strings.Contains(err.Error(), "no game to play") {
		t.Errorf("playing a refused script: %v", err)
	}
	if _, err := script.LoadAny("off.yaml", doc("2505", `"2505"`, ""), eng, script.NoFiles); err == nil || !strings.Contains(err.Error(), "no game to play") {
		t.Errorf("LoadAny of a refused script: %v", err)
	}
	// A scenario file that cannot be read is the script's error, even
	// when the text it expects is in the reason.
	missing := []byte("script: gone\nrefused: \"no such file\"\nscenario: nope.yaml\n")
	if _, err := script.Load("gone.yaml", missing, eng, script.Disk); err == nil || !strings.Contains(err.Error(), "gone.yaml:3: scenario: ") {
		t.Errorf("a refused script naming a missing file: %v; want the script's error at its scenario line", err)
	}
	for _, c := range []struct{ hex, refused, extra, want string }{
		{"0505", `"2505"`, "", "off.yaml:3: refused: the scenario loads, but the script expects it refused with \"2505\""},
		{"2505", `"a brook"`, "", "off.yaml:3: refused: the scenario is refused, but not with \"a brook\": "},
		{"2505", `"2505"`, "seed: 3\n", "off.yaml:3: seed: a script that expects its scenario refused (refused:) plays nothing, so it has no seed"},
		{"2505", `""`, "", "off.yaml:3: refused: want the text"},
	} {
		_, err := script.Load("off.yaml", doc(c.hex, c.refused, c.extra), eng, script.NoFiles)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("u1 at %s, refused %s: %v; want %q", c.hex, c.refused, err, c.want)
		}
	}
}
