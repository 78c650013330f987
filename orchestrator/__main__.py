from orchestrator.cli.launch import main

main()
