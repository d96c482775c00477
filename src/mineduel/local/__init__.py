"""The local stack: template.yaml's resources provisioned on moto, its functions invoked in-process.

``template`` reads template.yaml, ``provision`` creates what it declares on the current boto3
endpoint (in-process ``mock_aws`` or a moto server) and resolves every function's environment,
``invoke`` loads a function from its CodeUri and calls it with an API Gateway or Scheduler event.
The same handlers run unchanged here and on AWS: only the endpoint differs.
"""
