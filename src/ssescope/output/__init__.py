"""What the surfaces share to show a stream: the code index, frame rows, redaction, the
strict JSON writer, visible text and the Report schema. Nothing below the surfaces
imports this package."""
