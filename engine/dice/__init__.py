"""The dice tool (PF-DICE-1/2): one phone rolls three dice for a group at a real table,
each roll its own committed, revealed and verifiable unit of play. The platform reaches it
through `engine.dice.game.GAME`."""
