from orchestrator.launch import main

main()
