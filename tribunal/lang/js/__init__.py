"""The JavaScript/TypeScript front end: tree-sitter readers and the test runners."""
