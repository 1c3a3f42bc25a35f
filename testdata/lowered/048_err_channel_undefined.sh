error: main.jh: E_VALIDATE Channel "unknown_channel" is not defined
