package load

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// watcher holds the umpire's stream of every game on every instance and
// the times each move's event arrived on each, beside the times the
// commands were answered.
type watcher struct {
	mu      sync.Mutex
	arrived []map[string]time.Time // by instance: move key -> arrival
	answers map[string]answer      // move key -> where and when answered
}

type answer struct {
	at   int
	when time.Time
}

// moveKey names a move by its game and the point it goes to (the clients
// pick points at random, so a point names one command).
func moveKey(game string, x, y float64) string {
	return game + "|" + strconv.FormatFloat(x, 'g', -1, 64) + "," + strconv.FormatFloat(y, 'g', -1, 64)
}

// watch opens the umpire's stream of every game on every instance.
func watch(ctx context.Context, c *http.Client, bases []string, umps []umpire) (*watcher, error) {
	w := &watcher{answers: map[string]answer{}}
	for i, base := range bases {
		w.arrived = append(w.arrived, map[string]time.Time{})
		for _, u := range umps {
			req, err := http.NewRequestWithContext(ctx, "GET", base+u.game+"/stream", nil)
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "Bearer "+u.token)
			resp, err := c.Do(req)
			if err != nil {
				return nil, err
			}
			if resp.StatusCode != http.StatusOK {
				resp.Body.Close()
				return nil, fmt.Errorf("load: stream of %s on instance %d: status %d", u.game, i, resp.StatusCode)
			}
			go w.read(i, u.game, resp)
		}
	}
	return w, nil
}

// read takes a stream's events until it ends, noting when each move came.
func (w *watcher) read(at int, game string, resp *http.Response) {
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		now := time.Now()
		var e struct {
			Moves []struct {
				To [2]float64 `json:"to"`
			} `json:"moves"`
		}
		if json.Unmarshal([]byte(data), &e) != nil {
			continue
		}
		w.mu.Lock()
		for _, m := range e.Moves {
			w.arrived[at][moveKey(game, m.To[0], m.To[1])] = now
		}
		w.mu.Unlock()
	}
}

func (w *watcher) answered(at int, key string, when time.Time) {
	w.mu.Lock()
	w.answers[key] = answer{at, when}
	w.mu.Unlock()
}

// report waits up to grace for the last events to arrive, then adds the
// times from answer to arrival on another instance's stream (the same
// one's when there is one instance) to rep.
func (w *watcher) report(rep *Report, grace time.Duration) {
	missing := func() int {
		n := 0
		for key, a := range w.answers {
			if _, ok := w.arrived[w.other(a.at)][key]; !ok {
				n++
			}
		}
		return n
	}
	for end := time.Now().Add(grace); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		w.mu.Lock()
		n := missing()
		w.mu.Unlock()
		if n == 0 {
			break
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var lat []time.Duration
	for key, a := range w.answers {
		got, ok := w.arrived[w.other(a.at)][key]
		if !ok {
			rep.StreamMissed++
			continue
		}
		lat = append(lat, max(0, got.Sub(a.when)))
	}
	slices.Sort(lat)
	if n := len(lat); n > 0 {
		rep.StreamP50, rep.StreamP99, rep.StreamMax = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
}

// other is the instance whose stream times a command answered on at.
func (w *watcher) other(at int) int { return (at + 1) % len(w.arrived) }
