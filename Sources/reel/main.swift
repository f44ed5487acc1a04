import ReelCLI

ReelCommandLine.main()
