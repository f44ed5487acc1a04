import ReelCLI

await ReelCommandLine.main()
