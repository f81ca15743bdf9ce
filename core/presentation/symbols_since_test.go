package presentation

import (
	"reflect"
	"testing"
)

func TestClusters(t *testing.T) {
	for _, c := range []struct {
		at   []int
		want [][2]int
	}{
		{nil, nil},
		{[]int{3}, [][2]int{{3, 3}}},
		{[]int{0, 5, 7, 40}, [][2]int{{0, 7}, {40, 40}}}, // 5 and 7 are near 0
		{[]int{0, 10, 20, 30, 40}, [][2]int{{0, 40}}},    // more than 4 stretches: one
		{[]int{1, 100, 200, 300}, [][2]int{{1, 1}, {100, 100}, {200, 200}, {300, 300}}},
	} {
		if got := clusters(c.at, 8, 4); !reflect.DeepEqual(got, c.want) {
			t.Errorf("clusters(%v) = %v, want %v", c.at, got, c.want)
		}
	}
}
