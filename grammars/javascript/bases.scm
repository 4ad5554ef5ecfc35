(class_declaration (class_heritage [(identifier) (member_expression)] @base))
(class (class_heritage [(identifier) (member_expression)] @base))
