journal
