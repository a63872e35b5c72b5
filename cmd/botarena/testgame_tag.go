//go:build testgame

package main

// Built with -tags testgame, the binary also has internal/testgame, the
// tiny game that proves a new game's path: Python's trainer test
// (python/tests/test_train_contract.py) trains on it through this binary.
import _ "github.com/botarena/botarena/internal/testgame"
