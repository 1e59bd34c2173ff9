document.body.dataset.ready = 'yes';
