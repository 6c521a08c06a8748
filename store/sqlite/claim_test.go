//go:build unix

package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"orderly/store/storetest"
)

// TestClaim: a file opened with Claim is refused to a second Open with
// Claim (through another name of it too) before anything is opened, while
// an Open without Claim (a command beside the server) reads and writes it
// as ever; once the holder closes, the file may be claimed again.
func TestClaim(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "club.db")
	first, err := Open(ctx, path, Claim())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, link} {
		second, err := Open(ctx, name, Claim())
		if !errors.Is(err, ErrClaimed) {
			if second != nil {
				second.Close()
			}
			t.Fatalf("a second claim of %s: %v, want ErrClaimed", name, err)
		}
	}
	beside := openAt(t, path)
	storetest.Create(t, beside, "g")
	if _, err := first.Game(ctx, "g"); err != nil {
		t.Fatalf("the holder reads what was written beside it: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, link, Claim())
	if err != nil {
		t.Fatalf("a claim after the holder closed: %v", err)
	}
	again.Close()
}
