name = 'NoMove'
