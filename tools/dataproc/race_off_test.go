//go:build !race

package dataproc

const raceOn = false
