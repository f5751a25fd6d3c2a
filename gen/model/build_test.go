package model

import (
	"path/filepath"
	"testing"
)

var repoRoot = filepath.Join("..", "..")

// repoModel builds the model from the repository's own specs.
func repoModel(t *testing.T) *Model {
	t.Helper()
	m, err := LoadDir(repoRoot)
	if err != nil {
		t.Fatalf("the repository's specs do not build:\n%v", err)
	}
	return m
}

func TestBuildRepositorySpecs(t *testing.T) {
	repoModel(t)
}
