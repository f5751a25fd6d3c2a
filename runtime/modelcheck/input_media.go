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

// MediaFault is a fixed word for why an asset cannot be read.
type MediaFault string

const (
	FaultNone MediaFault = ""
	// FaultBadBase64: data_base64 is not standard padded base64.
	FaultBadBase64 MediaFault = vocab.ReasonBadBase64
	// FaultBadImage: the bytes are not a PNG or JPEG image.
	FaultBadImage MediaFault = vocab.ReasonBadImage
	// FaultFormatMismatch: the bytes are of another format than the asset says.
	FaultFormatMismatch MediaFault = vocab.ReasonFormatMismatch
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

func decodeData(a *ir.Asset) ([]byte, MediaFault) {
	data, err := base64.StdEncoding.DecodeString(a.Data.Str())
	if err != nil {
		return nil, FaultBadBase64
	}
	return data, FaultNone
}

// DecodeImage reads an image asset's size and dimensions from its header.
func DecodeImage(a *ir.Asset) (ImageInfo, MediaFault) {
	data, fault := decodeData(a)
	if fault != FaultNone {
		return ImageInfo{}, fault
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return ImageInfo{}, FaultBadImage
	}
	if a.Format != nil && !sameImageFormat(*a.Format, format) {
		return ImageInfo{}, FaultFormatMismatch
	}
	return ImageInfo{Bytes: int64(len(data)), Width: int64(cfg.Width), Height: int64(cfg.Height)}, FaultNone
}

func sameImageFormat(declared, decoded string) bool {
	if declared == "jpg" {
		declared = "jpeg"
	}
	return declared == decoded
}

// DecodeVideo reads a video asset's size, and its duration when it is an
// MP4 file with a movie header.
func DecodeVideo(a *ir.Asset) (VideoInfo, MediaFault) {
	data, fault := decodeData(a)
	if fault != FaultNone {
		return VideoInfo{}, fault
	}
	info := VideoInfo{Bytes: int64(len(data))}
	if moov := mp4Box(data, "moov"); moov != nil {
		if mvhd := mp4Box(moov, "mvhd"); mvhd != nil {
			info.Seconds, info.HasDuration = mvhdSeconds(mvhd)
		}
	}
	return info, FaultNone
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
