; Import bindings (the captures are described in ../python/bindings.scm).
; import java.lang.Thread; binds Thread, import static java.lang.Thread.sleep; binds sleep
; (the anchor leaves out import java.util.*;)
(import_declaration (scoped_identifier scope: (_) @from name: (identifier) @name) .)
