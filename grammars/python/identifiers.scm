(identifier) @identifier
