// Runs after htmx (both deferred) and before it starts: no injected indicator <style> and no
// eval (hx-on, trigger filters), which the Content-Security-Policy would block. Pages may still
// add their own settings with <meta name="htmx-config">; htmx merges those over these.
htmx.config.includeIndicatorStyles = false;
htmx.config.allowEval = false;
