evacuate 135000-145000
plan show
