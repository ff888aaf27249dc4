"""The firmware's version (portable): the gateway's ID line names it, and provisioning reads it back."""

FIRMWARE = "1.1.0"
