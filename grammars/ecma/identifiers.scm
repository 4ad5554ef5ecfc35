[(identifier) (property_identifier) (shorthand_property_identifier)] @identifier
