//go:build divergo_floor

package runtime

// dropFull: see floor.go.
const dropFull = true
