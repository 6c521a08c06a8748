package vmod

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// fitted is an image that fits the scenario format's bounds.
type fitted struct {
	Type          string
	Width, Height int
	data          []byte
	srcW, srcH    int // the module's image's size
}

// fit returns the board image as the map may carry it: as it is when it
// is a PNG, JPEG or GIF of at most MaxImage bytes and MaxSide pixels a
// side, else scaled down (to MaxSide a side, and further until it fits)
// and written again: as PNG, or as JPEG when PNG is too large.
func fit(data []byte) (*fitted, error) {
	typ := sniff(data)
	if typ == "" {
		return nil, errors.New("its image is not a PNG, JPEG or GIF; allowed: those three")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("its image does not read as %s: %v", typ, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return nil, errors.New("its image has no pixels")
	}
	out := &fitted{Type: typ, Width: cfg.Width, Height: cfg.Height, data: data, srcW: cfg.Width, srcH: cfg.Height}
	if len(data) <= MaxImage && cfg.Width <= MaxSide && cfg.Height <= MaxSide {
		return out, nil
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, fmt.Errorf("its image is %d by %d pixels, too large to scale here; allowed: at most %d pixels in all (scale it down to %d pixels a side before making the module)", cfg.Width, cfg.Height, MaxPixels, MaxSide)
	}
	var src image.Image
	switch typ {
	case "image/png":
		src, err = png.Decode(bytes.NewReader(data))
	case "image/jpeg":
		src, err = jpeg.Decode(bytes.NewReader(data))
	default:
		src, err = gif.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, fmt.Errorf("its image does not read as %s: %v", typ, err)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, cfg.Width, cfg.Height))
	draw.Draw(rgba, rgba.Bounds(), src, src.Bounds().Min, draw.Src)
	scale := min(1, float64(MaxSide)/float64(max(cfg.Width, cfg.Height)))
	for try := 0; try < 8; try++ {
		w, h := max(1, int(float64(cfg.Width)*scale)), max(1, int(float64(cfg.Height)*scale))
		small := shrink(rgba, w, h)
		var buf bytes.Buffer
		t := "image/png"
		if typ != "image/jpeg" {
			if err := png.Encode(&buf, small); err != nil {
				return nil, fmt.Errorf("writing its image scaled down: %w", err)
			}
		}
		if typ == "image/jpeg" || buf.Len() > MaxImage {
			buf.Reset()
			t = "image/jpeg"
			if err := jpeg.Encode(&buf, small, &jpeg.Options{Quality: 85}); err != nil {
				return nil, fmt.Errorf("writing its image scaled down: %w", err)
			}
		}
		if buf.Len() <= MaxImage {
			out.Type, out.Width, out.Height, out.data = t, w, h, buf.Bytes()
			return out, nil
		}
		scale *= 0.7
	}
	return nil, fmt.Errorf("its image is %d bytes and does not scale down to %d", len(data), MaxImage)
}

// shrink scales src down to w by h pixels, each pixel the average of the
// pixels it covers.
func shrink(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Bounds().Dx(), src.Bounds().Dy()
	if w == sw && h == sh {
		return src
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var sum [4]int
			n := 0
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					sum[0] += int(p[0])
					sum[1] += int(p[1])
					sum[2] += int(p[2])
					sum[3] += int(p[3])
					n++
				}
			}
			d := dst.Pix[y*dst.Stride+x*4:]
			for k := range 4 {
				d[k] = uint8(sum[k] / n)
			}
		}
	}
	return dst
}
