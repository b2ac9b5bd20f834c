defrag /var/log/auth.log
plan show
