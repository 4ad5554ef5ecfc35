from tether.cli.main import main

raise SystemExit(main())
