package envproto

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/env/training"
)

// TestTrainingDefaultsCarriesEveryField checks the wire form of a game's
// training defaults, its PPO hyperparameters included: the games the
// server links leave those at 0 (the trainer's defaults), so ListGames'
// own test cannot tell a dropped field from an unset one.
func TestTrainingDefaultsCarriesEveryField(t *testing.T) {
	for _, tc := range []struct {
		name     string
		training training.Defaults
		config   string
	}{
		{"hyperparameters", training.Defaults{Channels: []int{8, 16}, Strides: []int{1, 2}, Hidden: 32, Config: map[string]any{"x_reward": 0.5}, Gamma: 0.95, EntCoef: 0.02}, `{"x_reward":0.5}`},
		{"trainer_defaults", training.Defaults{Channels: []int{8}, Strides: []int{1}, Hidden: 32}, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := trainingDefaults(tc.training)
			if err != nil {
				t.Fatal(err)
			}
			var channels, strides []int
			for i := range got.GetChannels() {
				channels = append(channels, int(got.GetChannels()[i]))
			}
			for i := range got.GetStrides() {
				strides = append(strides, int(got.GetStrides()[i]))
			}
			tr := tc.training
			if !slices.Equal(channels, tr.Channels) || !slices.Equal(strides, tr.Strides) || int(got.GetHidden()) != tr.Hidden ||
				got.GetConfigJson() != tc.config || got.GetGamma() != tr.Gamma || got.GetEntCoef() != tr.EntCoef {
				t.Errorf("trainingDefaults(%+v) = %v", tr, got)
			}
		})
	}
}
