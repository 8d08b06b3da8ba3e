"""The terminal game's Textual CSS: the layout of the game screen, its dialogs and the end."""

from __future__ import annotations

CSS = """
Screen { layout: vertical; }
#game { height: 1fr; }
#too-small { height: 1fr; display: none; padding: 1 2; content-align: center middle; }
#top { height: auto; max-height: 2; padding: 0 1; background: $primary-background; }
#prompt { height: auto; max-height: 2; padding: 0 1; text-style: bold; }
#body { height: 1fr; }
#left { width: 1fr; }
#fan { height: 1; padding: 0 1; }
FanView:focus { background: $boost; }
#banner { height: auto; display: none; padding: 0 1; background: #ffd43b; color: #000000; }
#table-scroll { height: 1fr; padding: 0 1; }
#table { height: auto; }
#log { height: 5; padding: 0 1; border-top: solid $primary; border-title-color: $text;
       border-title-style: bold; }
#side { width: 40%; min-width: 30; max-width: 72; padding: 0 1; border-left: tall $primary; }
#players { height: auto; margin-bottom: 1; }
#drawn { height: auto; margin-bottom: 1; }
#actions-title { height: 1; text-style: bold; }
#actions { height: 1fr; min-height: 3; border: none; padding: 0; }
#actions:focus { background-tint: $foreground 5%; }
#legend { height: auto; display: none; margin-top: 1; }
#status { height: auto; max-height: 2; padding: 0 1; background: $boost; }
#keys { height: 1; padding: 0 1; color: $text-muted; }
#rules-box, #save-box, #quit-box, #end-box {
    border: round $primary; padding: 0 1; background: $surface;
}
RulesScreen, SaveScreen, QuitScreen { align: center middle; }
#rules-box { width: 90%; max-width: 100; height: 90%; }
#rules-scroll { height: 1fr; }
#rules-keys, #save-keys, #quit-keys, #end-keys { height: auto; color: $text-muted; }
#save-box, #quit-box { width: 70%; min-width: 40; max-width: 80; height: auto; }
#save-error { height: auto; color: $error; }
#end-box { height: 1fr; }
PassScreen { align: center middle; }
#pass-box { width: 70%; min-width: 40; max-width: 80; height: auto; border: round $primary;
            padding: 1 2; background: $surface; }
#pass-title { height: auto; text-style: bold; margin-bottom: 1; }
#pass-keys { height: auto; color: $text-muted; }
#end-scroll { height: 1fr; }
#end-status { height: auto; padding: 0 1; }
"""

__all__ = ["CSS"]
