"""Play by typed commands (issue 30): the command line of the table page, for screen-reader users.

``parse`` turns what a player typed into a :class:`~games.typed.parse.Command` (no database, no
state); ``plan`` turns a command and the player's own view of the table into an answer to read
(``Answer``) or a move for the one edge of every move (``Step``: a ``games.commands`` kind and its
fields, carried out by the same services, checks and refusals as the board's buttons);
``games.board.speech`` says cards, melds and hands in the reader's language.  ``games.commands`` does the reading and the
writing; nothing here touches the database.
"""
