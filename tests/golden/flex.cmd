flex
