from api.program import main

main()
