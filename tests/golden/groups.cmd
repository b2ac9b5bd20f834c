groups
