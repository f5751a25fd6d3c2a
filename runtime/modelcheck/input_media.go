package modelcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	_ "image/jpeg" // registers JPEG with image.DecodeConfig
	_ "image/png"  // registers PNG with image.DecodeConfig

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// ImageInfo is what the checks need of an image.
type ImageInfo struct {
	Bytes         int64
	Width, Height int64
}

// VideoInfo is what the checks need of a video. HasDuration is false when
// the container's duration could not be read (only MP4's mvhd is read).
type VideoInfo struct {
	Bytes       int64
	Seconds     float64
	HasDuration bool
}

// decodeData decodes an asset's data_base64: standard padded base64.
func decodeData(a *ir.Asset) ([]byte, *Failure) {
	data, err := base64.StdEncoding.DecodeString(a.DataBase64.Str())
	if err != nil {
		return nil, Fail(vocab.ReasonBadBase64)
	}
	return data, nil
}

// DecodeImage reads an image asset's size and dimensions from its header:
// the bytes must be a PNG or JPEG image of the format the asset names.
func DecodeImage(a *ir.Asset) (ImageInfo, *Failure) {
	data, f := decodeData(a)
	if f != nil {
		return ImageInfo{}, f
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return ImageInfo{}, Fail(vocab.ReasonBadImage)
	}
	if a.Format != nil && !sameImageFormat(*a.Format, format) {
		return ImageInfo{}, Fail(vocab.ReasonFormatMismatch)
	}
	return ImageInfo{Bytes: int64(len(data)), Width: int64(cfg.Width), Height: int64(cfg.Height)}, nil
}

func sameImageFormat(declared, decoded string) bool {
	if declared == "jpg" {
		declared = "jpeg"
	}
	return declared == decoded
}

// DecodeVideo reads a video asset's size, and its duration when it is an
// MP4 file with a movie header.
func DecodeVideo(a *ir.Asset) (VideoInfo, *Failure) {
	data, f := decodeData(a)
	if f != nil {
		return VideoInfo{}, f
	}
	info := VideoInfo{Bytes: int64(len(data))}
	if moov := mp4Box(data, "moov"); moov != nil {
		if mvhd := mp4Box(moov, "mvhd"); mvhd != nil {
			info.Seconds, info.HasDuration = mvhdSeconds(mvhd)
		}
	}
	return info, nil
}

// mp4Box returns the payload of the first box of type name among the
// boxes in data, or nil.
func mp4Box(data []byte, name string) []byte {
	for len(data) >= 8 {
		size := uint64(binary.BigEndian.Uint32(data))
		header := uint64(8)
		switch size {
		case 0:
			size = uint64(len(data))
		case 1:
			if len(data) < 16 {
				return nil
			}
			size, header = binary.BigEndian.Uint64(data[8:]), 16
		}
		if size < header || size > uint64(len(data)) {
			return nil
		}
		if string(data[4:8]) == name {
			return data[header:size]
		}
		data = data[size:]
	}
	return nil
}

// mvhdSeconds reads a movie header's duration in seconds.
func mvhdSeconds(b []byte) (float64, bool) {
	if len(b) < 1 {
		return 0, false
	}
	var timescale, duration uint64
	switch b[0] {
	case 0:
		if len(b) < 20 {
			return 0, false
		}
		timescale, duration = uint64(binary.BigEndian.Uint32(b[12:])), uint64(binary.BigEndian.Uint32(b[16:]))
	case 1:
		if len(b) < 32 {
			return 0, false
		}
		timescale, duration = uint64(binary.BigEndian.Uint32(b[20:])), binary.BigEndian.Uint64(b[24:])
	default:
		return 0, false
	}
	if timescale == 0 {
		return 0, false
	}
	return float64(duration) / float64(timescale), true
}
