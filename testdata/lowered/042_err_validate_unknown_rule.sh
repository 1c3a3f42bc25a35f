error: main.jh: E_VALIDATE unknown local rule reference "absent_rule"
