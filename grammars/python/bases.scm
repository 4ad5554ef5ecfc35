; The classes a class derives from, as written (resolved like calls: imports, the file, a unique name).
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base))
