(class_declaration (class_heritage (extends_clause value: [(identifier) (member_expression)] @base)))
(abstract_class_declaration (class_heritage (extends_clause value: [(identifier) (member_expression)] @base)))
(class (class_heritage (extends_clause value: [(identifier) (member_expression)] @base)))
