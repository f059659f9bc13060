"""Reports as documents: JSON (``json_report``) and SARIF 2.1.0 (``sarif``). Data only."""
