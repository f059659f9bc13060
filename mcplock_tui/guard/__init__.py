"""The runtime guard: the lockfile as the contract between the agent and its MCP servers.

``policy`` decides (pure), ``relay`` applies the decisions to raw JSON-RPC traffic,
``upstream``/``http`` reach the real server, ``serve`` runs it all on stdio, ``observe`` and
``runtime`` carry what the guard saw into review, ``install``/``entry`` edit and read client
configs. Nothing here imports the app or Claude: the guard starts in every agent session.
"""
