//! Parsers that turn pasted reports (collect_env, nvidia-smi, pip lists,
//! tracebacks) into an Inventory whose facts say which input line they came from.
