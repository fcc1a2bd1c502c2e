"""The resident checker (`guard serve --user`): its server, its client, the wire protocol, the
answers it gives, and starting it when a client finds none."""
