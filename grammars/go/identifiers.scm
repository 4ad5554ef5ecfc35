[(identifier) (field_identifier) (type_identifier)] @identifier
