"""The doors to a store, one subpackage each: the HTTP service (``http``), the command line
(``cli``), the web page (``web``) and file formats (``formats``). Beside them, what every door
shares: the program that starts them (``program``), the layers over a store (``store``), how a
command finds a running service (``remote``), errors and the message catalogues (``i18n``)."""
