"""The review workstation: a Textual app over the same core the headless check uses."""
