package env

import "fmt"

// Agent is a policy for one seat of one env: a game's built-in bot, an
// external bot behind its original protocol, a frozen neural policy, or a
// pool's opponent. It is the one agent interface of botarena: play,
// tournaments, leagues, the match service, the web viewer and the pools'
// opponent seats all drive agents through it.
//
// An Agent is not safe for concurrent use, and one instance plays one
// seat: agents may keep per-game memory (Bomberman's reference bot
// remembers its target). Act must not allocate once Reset has been called,
// because pools call it inside their step.
type Agent interface {
	// Reset prepares the agent for a new game of e, playing seat, with its
	// own randomness seeded from seed ([AgentSeed] of the game's seed).
	// Call it after e.Reset (or after loading a state into e), before the
	// first Act of the game. It panics if e is not a game the agent was
	// made for.
	Reset(e Env, seat int, seed uint64)

	// Act returns seat's action for the current state of e: a value in
	// 0..e.Spec().Actions-1 (0 is the do-nothing action). It reads e and
	// does not modify it, and it does not allocate. It panics if e is not
	// a game the agent was made for.
	Act(e Env, seat int) int32
}

// AgentFactory makes an agent for envs of spec. It returns an error if the
// agent cannot play that game (for example a game-specific agent asked for
// another game). Pools call it once per env and seat.
type AgentFactory func(spec *Spec) (Agent, error)

// AgentInfo is one built-in agent of a game, as a game's kit lists them
// for package agents (see [Entry.Kit]).
type AgentInfo struct {
	// Name is the name agents are asked for by ("reference").
	Name string
	// Summary is a one-line description for listings.
	Summary string
	// New makes the agent for envs of spec; it returns an error for a spec
	// of another game.
	New AgentFactory
}

// GameAgent returns the [AgentFactory] of game's built-in agent name: for a
// spec of any registry name of game ([BaseGame]), or a nil spec, it
// returns newAgent(); for a spec of another game it returns an error
// naming the agent and that game.
func GameAgent(game, name string, newAgent func() Agent) AgentFactory {
	return func(spec *Spec) (Agent, error) {
		if spec != nil && BaseGame(spec.Game) != game {
			return nil, fmt.Errorf("the %s %s bot cannot play %s", game, name, spec.Game)
		}
		return newAgent(), nil
	}
}
