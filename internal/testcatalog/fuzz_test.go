package testcatalog

import (
	"slices"
	"testing"
)

func TestFuzzBytes(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want []int
	}{
		{name: "empty input", data: nil, want: []int{0, 0}},
		{name: "bytes, then zeros", data: []byte{7, 255, 0, 1}, want: []int{7, 255, 0, 1, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := FuzzBytes(tt.data)
			var got []int
			for range tt.want {
				got = append(got, next())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("FuzzBytes(%v) gave %v, want %v", tt.data, got, tt.want)
			}
		})
	}
}
