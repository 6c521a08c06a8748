package battle

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif"  // the backdrop's formats: GIF,
	_ "image/jpeg" // JPEG
	_ "image/png"  // and PNG
	"net/http"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
)

// MaxImage is the most bytes a scenario's backdrop image may have, once
// decoded from its data URL.
const MaxImage = 4 << 20

// MaxImageSide is the most pixels a backdrop image may have a side.
const MaxImageSide = 8192

// ImageTypes are the media types a backdrop image may have.
var ImageTypes = []string{"image/png", "image/jpeg", "image/gif"}

// Image is a backdrop drawn under the table or the hex map, such as a
// scanned map or a game board: the picture and where it lies. On a table
// it is placed by Scale and At; on a hex map by the grid of its hexes in
// its pixels (X0, Y0, DX, DY).
type Image struct {
	Type          string // image/png, image/jpeg or image/gif
	Data          []byte // the image's bytes
	Width, Height int    // pixels
	// Scale is a table's image's pixels per inch.
	Scale float64
	// At is where a table's image's top-left corner lies, in inches.
	At geom.Point
	// X0, Y0 is the centre of a hex map's first hex (first column, first
	// row) in the image's pixels; DX is the distance between the centres
	// of hexes in neighbouring columns (q layouts) or of neighbouring
	// hexes in a row (r layouts), DY that between neighbouring hexes in a
	// column (q layouts) or of hexes in neighbouring rows (r layouts).
	X0, Y0, DX, DY float64
}

// imageKeys are the keys that place an image on each kind of space.
var imageKeys = map[string][]string{
	geom.KindTable: {"scale", "at"},
	geom.KindHex:   {"x0", "y0", "dx", "dy"},
}

// image builds the backdrop image of a field (kind geom.KindTable, at
// field.image) or a map (geom.KindHex, at map.image): the keys of the
// other space are refused where written, those of its own required, and
// the data must be a PNG, JPEG or GIF within MaxImage bytes and
// MaxImageSide pixels a side.
func (b *builder) image(f *imageFile, where, kind string) (*Image, error) {
	other, otherWhere := geom.KindHex, "map.image"
	if kind == geom.KindHex {
		other, otherWhere = geom.KindTable, "field.image"
	}
	for _, k := range imageKeys[other] {
		if v := value(f.Node, k); v != nil {
			return nil, b.Errf(keyNode(f.Node, k), "%s.%s: an image under a %s is placed by %s; %s place one under a %s (%s)",
				where, k, surface(kind), andList(imageKeys[kind]), andList(imageKeys[other]), surface(other), otherWhere)
		}
	}
	im := &Image{Scale: f.Scale, X0: f.X0, Y0: f.Y0, DX: f.DX, DY: f.DY}
	if len(f.At) == 2 {
		im.At = geom.Pt(f.At[0], f.At[1])
	}
	need := []string{"scale"}
	if kind == geom.KindHex {
		need = imageKeys[geom.KindHex]
	}
	for _, k := range need {
		if value(f.Node, k) == nil {
			return nil, b.Errf(f.Node, "%s: %s is missing; an image under a %s is placed by %s", where, k, surface(kind), andList(imageKeys[kind]))
		}
	}
	at := value(f.Node, "data")
	typ, data, err := DataURL(f.Data)
	if err != nil {
		return nil, b.Errf(at, "%s.data: %v", where, err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || "image/"+format != typ {
		return nil, b.Errf(at, "%s.data: the %s image could not be read; give a whole PNG, JPEG or GIF file", where, strings.TrimPrefix(typ, "image/"))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, b.Errf(at, "%s.data: the image is %d by %d pixels; at most %d pixels a side are allowed", where, cfg.Width, cfg.Height, MaxImageSide)
	}
	im.Type, im.Data, im.Width, im.Height = typ, data, cfg.Width, cfg.Height
	return im, nil
}

// DataURL reads a backdrop image's data URL, data:image/png;base64,...:
// it returns the image's type as sniffed from its bytes (one of
// ImageTypes) and the bytes, at most MaxImage of them.
func DataURL(s string) (typ string, data []byte, err error) {
	rest, ok := strings.CutPrefix(s, "data:")
	head, body, comma := strings.Cut(rest, ",")
	media, b64 := strings.CutSuffix(head, ";base64")
	if !ok || !comma || !b64 || !slices.Contains(ImageTypes, media) {
		return "", nil, fmt.Errorf("want a data URL such as data:image/png;base64,iVBOR..., of a PNG, JPEG or GIF image, got %s", preview(s))
	}
	body = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, body)
	if base64.StdEncoding.DecodedLen(len(body)) > MaxImage+3 {
		return "", nil, fmt.Errorf("the image is over %d MiB; at most %d MiB (%d bytes) are allowed", MaxImage>>20, MaxImage>>20, MaxImage)
	}
	data, err = base64.StdEncoding.DecodeString(body)
	if err != nil {
		return "", nil, fmt.Errorf("the text after base64, is not valid base64 (%v)", err)
	}
	if len(data) > MaxImage {
		return "", nil, fmt.Errorf("the image is over %d MiB; at most %d MiB (%d bytes) are allowed", MaxImage>>20, MaxImage>>20, MaxImage)
	}
	typ = http.DetectContentType(data)
	if !slices.Contains(ImageTypes, typ) {
		return "", nil, fmt.Errorf("the data is not a PNG, JPEG or GIF image (it reads as %s); give one of those", typ)
	}
	return typ, data, nil
}

// preview quotes the start of a long text for a message.
func preview(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q...", s[:40])
	}
	return fmt.Sprintf("%q", s)
}

// andList joins words as prose: a, b and c.
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// MaxText is the most bytes a scenario's text may have beside its
// backdrop image's data (TextSize): the image may make a file several
// megabytes long, its YAML may not, since reading YAML takes far more
// time and memory a byte than the image's base64 does.
const MaxText = 1 << 20

// TextSize is the bytes of a scenario's text, YAML or JSON, not counting
// the base64 of the data URLs of images in it (data:image/...;base64,
// then base64 and white space): what reading it as YAML costs. It looks
// at the bytes only, so that a text too large can be refused before it
// is parsed. A run it leaves out holds no YAML indicator, so it cannot
// hold more than a part of one scalar.
func TextSize(data []byte) int {
	n := len(data)
	for rest := data; ; {
		i := bytes.Index(rest, []byte("data:image/"))
		if i < 0 {
			return n
		}
		rest = rest[i+len("data:image/"):]
		j := bytes.Index(rest, []byte(";base64,"))
		if j < 0 || j > 20 {
			continue
		}
		rest = rest[j+len(";base64,"):]
		k := 0
		for k < len(rest) && isBase64Text(rest[k]) {
			k++
		}
		n -= k
		rest = rest[k:]
	}
}

// isBase64Text reports whether c may be part of base64 text in a
// scenario: the standard alphabet, padding and white space.
func isBase64Text(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '=' || c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

// MaxNodes is the most values (mappings, lists, keys and scalars) a
// scenario's YAML may have: some seven thousand pieces, each with its
// attributes. Every step past the parse (the loader, the canonical form,
// the editor's document) costs time and memory by the value.
const MaxNodes = 100_000

// Bounded says whether a parsed scenario has at most MaxNodes values,
// looking at no more than that many.
func Bounded(n *yaml.Node) error {
	count := 0
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if count++; count > MaxNodes {
			return false
		}
		for _, c := range n.Content {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	if !walk(n) {
		return fmt.Errorf("the scenario has more than %d values (keys, numbers, texts, lists and mappings); allowed: at most %d", MaxNodes, MaxNodes)
	}
	return nil
}
