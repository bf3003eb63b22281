"""`generateUserInterface` as a tool of agent frameworks, each a few lines over the client."""
