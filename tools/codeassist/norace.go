//go:build !race

package codeassist

const raceBuild = false
