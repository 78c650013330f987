name = 'ImportLoop'
while True:
    pass
