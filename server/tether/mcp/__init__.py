"""The MCP server: the tools and note resources tether offers agents."""
